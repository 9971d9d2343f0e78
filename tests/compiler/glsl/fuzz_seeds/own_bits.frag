#version 400
uniform uvec4 seed;
uniform int iterations;
in vec2 uv;
out vec4 color;

uint hash(uint x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

void main() {
    uint h = hash(floatBitsToUint(uv.x) ^ hash(floatBitsToUint(uv.y)) ^ seed.x);
    int bits = bitCount(h);
    int top = findMSB(h);
    uint rev = bitfieldReverse(h);
    uint lo, hi;
    umulExtended(h, rev, hi, lo);
    vec2 halves = unpackUnorm2x16(lo);
    float acc = 0.0;
    for (int i = 0; i < iterations; ++i)
        acc += float(bitfieldExtract(h, i % 32, 1));
    color = vec4(float(bits) / 32.0, float(top) / 31.0, halves.x, acc / float(max(iterations, 1)));
}
