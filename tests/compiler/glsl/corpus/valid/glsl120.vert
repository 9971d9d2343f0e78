#version 120
attribute vec3 pos;
uniform mat3x4 m;
uniform float weights[4] = float[4](0.1, 0.2, 0.3, 0.4);
varying vec4 v;
invariant varying vec2 uv;
const float table[3] = float[](1.0, 2.0, 3.0);

void main() {
    int n = 2;
    float f = n;            // implicit int -> float
    vec4 p = m * pos + vec4(f);
    float s = 0.0;
    for (int i = 0; i < weights.length(); i++)
        s += weights[i] * table[i - 3 * (i / 3)];
    v = p * s;
    uv = vec2(transpose(mat2(1.0))[0]);
    mat3 o = outerProduct(pos, pos);
    gl_Position = gl_ModelViewProjectionMatrix * vec4(o * pos, 1.0);
}
