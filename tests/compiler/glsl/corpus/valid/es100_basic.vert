#version 100
// GLSL ES 1.00 vertex shader: attributes, varyings, uniforms, matrices, loops.
attribute vec4 a_position;
attribute vec2 a_texcoord;
uniform mat4 u_mvp;
uniform float u_time;
varying vec2 v_texcoord;
varying lowp vec4 v_color;
const int N = 3;

vec4 wobble(vec4 p, float t) {
    for (int i = 0; i < N; i++) {
        p.x += sin(t + float(i)) * 0.1;
    }
    return p;
}

void main() {
    v_texcoord = a_texcoord;
    v_color = vec4(a_texcoord, 0.5, 1.0);
    gl_Position = u_mvp * wobble(a_position, u_time);
    gl_PointSize = 1.0;
}
