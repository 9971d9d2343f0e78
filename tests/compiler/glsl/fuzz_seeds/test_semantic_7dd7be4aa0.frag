#version 120
void main() {
 const vec3 a = vec3(1.0, 2.0, 3.0);
 const float d = dot(a, a) + a.y * 2.0;
 const mat2 m = mat2(2.0);
 const vec2 r = m * vec2(1.0, 3.0);
}
