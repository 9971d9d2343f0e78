// EXPECT: 0:6(40): error: `gl_PointSize' undeclared
#version 150
out gl_PerVertex {
    vec4 gl_Position;
};
void main() { gl_Position = vec4(0.5); gl_PointSize = 4.0; }
