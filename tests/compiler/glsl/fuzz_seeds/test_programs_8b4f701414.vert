#version 150
in vec4 p;
out Data { vec4 c; float k; } vs_out;
void main() { gl_Position = p; vs_out.c = p; vs_out.k = 1.0; }
