// EXPECT: 0:3(21): error: interpolation qualifier `smooth' cannot be applied to the deprecated storage qualifier `varying'
#version 130
smooth varying vec3 normal;
void main() { gl_FragColor = vec4(normal, 1.0); }
