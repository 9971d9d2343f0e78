#version 410
in vec4 p;
flat out int f1;
out vec2 s1;
noperspective out float l1;
out vec3 s2;
layout(location = 3) out vec4 s0;
flat out ivec2 f2[2];
out mat2 m;
void main() {
    gl_Position = p; f1 = 1; s1 = p.xy; l1 = p.z; s2 = p.xyz; s0 = p; f2[0] = ivec2(1); f2[1] = ivec2(2);
    m = mat2(p); gl_PointSize = 3.0;
}
