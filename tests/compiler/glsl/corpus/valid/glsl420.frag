#version 420
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1, rgba32f) uniform coherent image2D img;
layout(binding = 0, offset = 4) uniform atomic_uint hits;
layout(early_fragment_tests) in;
in vec2 uv;
out vec4 color;
const vec3 list[2] = { vec3(1.0), vec3(0.0, 1.0, 0.0) };

void main() {
    float s = 1.0;
    vec2 sw = s.xx;
    color = texture(tex, uv) + imageLoad(img, ivec2(uv)) + vec4(list[1], sw.x);
    imageStore(img, ivec2(0), color);
    uint n = atomicCounterIncrement(hits);
    color.x += float(n) + float(color.length());
    memoryBarrier();
    vec2 pk = unpackSnorm2x16(packSnorm2x16(uv));
    color.yz = pk;
}
