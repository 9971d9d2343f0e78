#version 330
uniform int mode;
uniform float t;
uniform vec4 palette[8];
in vec2 uv;
layout(location = 0) out vec4 color;

void spiral(in vec2 p, out float r, inout float a) {
    r = length(p);
    a += atan(p.y, p.x);
}

int classify(float v) {
    if (v < 0.25) return 0;
    else if (v < 0.5) return 1;
    else if (v < 0.75) return 2;
    return 3;
}

void main() {
    vec2 p = uv * 2.0 - 1.0;
    float r, a = t;
    spiral(p, r, a);
    vec4 c = vec4(0.0);
    switch (mode) {
    case 0:
        c = palette[classify(fract(r * 4.0))];
        break;
    case 1:
    case 2: {
        int k = 0;
        float acc = 0.0;
        do {
            acc += sin(a * float(k + 1)) / float(k + 1);
            k++;
        } while (k < 6);
        c = vec4(acc * 0.5 + 0.5);
        break;
    }
    default:
        c = mix(palette[0], palette[7], smoothstep(0.0, 1.0, r));
    }
    if (c.a < 0.01)
        discard;
    color = c;
}
