#version 430
in vec4 a; out vec4 r;
mat3 rot(float t) { float c = cos(t), s = sin(t); return mat3(c, s, 0.0, -s, c, 0.0, 0.0, 0.0, 1.0); }
void main() {
    mat3 m = rot(a.x) * rot(a.y);
    m[2] = vec3(a.z, a.w, 1.0);
    m[1][2] += 2.0;
    mat3 mi = inverse(m);
    vec3 v = mi * (m * vec3(1.0, 2.0, 3.0));
    r = vec4(v, m[1][2] + (m * 2.0)[0][0]);
}