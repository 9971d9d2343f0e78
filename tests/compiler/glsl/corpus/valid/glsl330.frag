#version 330 core
layout(location = 0, index = 0) out vec4 color;
layout(location = 0, index = 1) out vec4 blend;
in vec2 uv;
uniform sampler2D tex;

void main() {
    vec4 t = texture(tex, uv);
    int bits = floatBitsToInt(t.x);
    color = vec4(intBitsToFloat(bits), t.yzw);
    blend = vec4(1.0) - color;
}
