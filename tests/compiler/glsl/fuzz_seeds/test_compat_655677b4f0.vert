attribute vec4 p;
void main() { gl_Position = p; }
