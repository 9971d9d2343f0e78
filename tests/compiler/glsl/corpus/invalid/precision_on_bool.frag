// EXPECT: 0:4(19): error: precision qualifiers apply only to floating point, integer and opaque types, not `bvec3'
#version 130
void main() {
    mediump bvec3 flags = bvec3(true);
    gl_FragColor = vec4(flags, 1.0);
}
