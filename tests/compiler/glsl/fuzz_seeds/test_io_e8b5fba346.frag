#version 330
flat in int f; in vec2 s; noperspective in vec3 l; in vec4 t; out vec4 o;
void main() { o = vec4(s, l.x, t.w + float(f)); }