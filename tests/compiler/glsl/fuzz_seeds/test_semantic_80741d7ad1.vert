attribute vec4 p;
varying vec2 uv;
void main() { uv = p.xy; gl_Position = p; }
