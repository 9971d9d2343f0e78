#version 330 core
in vec4 v;
layout(location = 0) out uvec4 o;
void main(){
  vec3 n = vec3(v.xy, 1.0) * v.z;
  float d = dot(n, vec3(v.w, 1.0, 1.0));
  o = floatBitsToUint(vec4(clamp(v.x * v.y, 0.0, 1.0), clamp(clamp(v.z + v.w, 0.0, 1.0), 0.0, 1.0),
                           clamp(d, 0.0, 1.0), n.z * 1.0));
}
