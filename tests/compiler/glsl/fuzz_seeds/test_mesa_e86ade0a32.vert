#version 300 es
in vec3 pos; in vec3 nrm; in vec2 uv; uniform mat4 mvp; uniform mat4 rot; out vec2 v_uv; out float v_l;
void main(){ gl_Position = mvp * vec4(pos, 1.0); v_uv = uv;
             v_l = max(dot((rot * vec4(nrm, 0.0)).xyz, normalize(vec3(0.3, 0.5, 1.0))), 0.0) * 0.8 + 0.2; }