// EXPECT: 0:3(1): error: precision qualifiers apply only to floating point, integer and opaque types, not `Light'
#version 100
lowp struct Light { mediump vec3 dir; };
void main() { gl_FragColor = vec4(0.0); }
