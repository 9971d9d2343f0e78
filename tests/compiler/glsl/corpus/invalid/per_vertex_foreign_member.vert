// EXPECT: 0:5(10): error: `shade' is not a member of the built-in block gl_PerVertex
#version 150
out gl_PerVertex {
    vec4 gl_Position;
    vec4 shade;
};
void main() { gl_Position = vec4(0.0); }
