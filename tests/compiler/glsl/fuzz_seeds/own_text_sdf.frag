#version 330
uniform sampler2D atlas;
uniform vec4 color;
uniform float px_range;
in vec2 v_uv;
out vec4 frag;

float median(float r, float g, float b) {
    return max(min(r, g), min(max(r, g), b));
}

void main() {
    vec3 s = texture(atlas, v_uv).rgb;
    float d = median(s.r, s.g, s.b) - 0.5;
    float w = clamp(d * px_range + 0.5, 0, 1);
    float edge = step(0, d) * max(w, 0);
    float stripes = mod(floor(gl_FragCoord.x), 2);
    frag = vec4(color.rgb, color.a * mix(w, edge, stripes * 0));
}
