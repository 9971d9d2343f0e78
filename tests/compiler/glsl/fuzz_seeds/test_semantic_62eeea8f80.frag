#version 120
void main() {
 mat2x3 m; vec3 a = m * vec2(1.0);
 vec2 b = vec3(1.0) * m;
 mat3x2 t = transpose(m);
 mat3 o = m * t;
}
