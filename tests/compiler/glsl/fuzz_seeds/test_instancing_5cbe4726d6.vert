#version 300 es
in vec2 pos;
in vec2 off;
in vec4 col;
out vec4 v;
void main() {
    vec2 p = pos + off + vec2(0.0, 1.0) * float(gl_InstanceID % 2);
    gl_Position = vec4(p, 0.0, 1.0);
    v = vec4(col.rg, float(gl_InstanceID) / 8.0, 1.0);
}