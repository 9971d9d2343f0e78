#version 330 core
in vec2 v_uv;
out vec4 o;
void main(){
  vec3 n = normalize(vec3(v_uv * 2.0 - 1.0, 1.0));
  float a = sin(v_uv.x * 12.0);
  float b = cos(v_uv.y * 9.0);
  vec3 l = vec3(a, b, 0.75);
  float nl = max(dot(n, l), 0.0);
  float s = pow(nl + 1e-4, 8.0);
  vec3 c = vec3(0.9, 0.6, 0.3) * nl + s;
  c = c * (0.5 + 0.5 * a * b);
  o = vec4(clamp(c, 0.0, 1.0), 1.0);
}
