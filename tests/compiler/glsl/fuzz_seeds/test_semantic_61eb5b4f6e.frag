#version 150
#ifdef GL_compatibility_profile
#error defined
#endif
void main() { gl_FragColor = vec4(1.0); }
