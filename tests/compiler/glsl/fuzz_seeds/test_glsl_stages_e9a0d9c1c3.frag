#version 430
uniform sampler2D s;
in vec2 uv;
flat in ivec2 texel;
layout(location = 0) out uvec4 o;
void main() {
  vec4 a = texture(s, uv);
  vec4 b = texelFetch(s, texel, 0);
  ivec2 size = textureSize(s, 0);
  o = uvec4(packUnorm4x8(a), packUnorm4x8(b), uint(size.x * 100 + size.y), uint(textureQueryLevels(s)));
}