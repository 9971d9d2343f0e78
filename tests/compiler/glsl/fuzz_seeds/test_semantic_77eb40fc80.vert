#version 150
out gl_PerVertex { vec4 gl_Position; float gl_PointSize; };
void main() { gl_Position = vec4(1.0); }
