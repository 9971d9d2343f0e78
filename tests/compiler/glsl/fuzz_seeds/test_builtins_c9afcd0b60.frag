#version 430
in vec4 a; in vec4 b; out vec4 r;
void main() {
    mat2x3 m = mat2x3(a.xyz, b.xyz);           // 2 columns of 3
    mat3x2 t = transpose(m);
    vec3 v = m * a.xy;                          // 3-vector
    vec2 w = a.xyz * m;                         // row vector times matrix
    mat2 p = t * m;                             // 2x2
    r = vec4(v.x + w.y, p[1][0], determinant(p), outerProduct(a.xy, b.xyz)[2][1]);
}