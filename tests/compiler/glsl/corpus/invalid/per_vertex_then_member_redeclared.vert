// EXPECT: 0:6(11): error: `gl_ClipDistance' redeclared after gl_PerVertex
#version 150
out gl_PerVertex {
    vec4 gl_Position;
};
out float gl_ClipDistance[2];
void main() { gl_Position = vec4(0.0); }
