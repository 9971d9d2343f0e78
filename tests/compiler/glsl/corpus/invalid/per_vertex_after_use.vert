// EXPECT: 0:4(1): error: gl_PerVertex redeclared after a use or redeclaration of `gl_PointSize'
#version 150
void size_it() { gl_PointSize = 3.0; }
out gl_PerVertex {
    vec4 gl_Position;
    float gl_PointSize;
};
void main() { size_it(); gl_Position = vec4(0.0); }
