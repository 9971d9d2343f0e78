#version 330 core
struct Light {
    vec3 position;
    vec3 color;
    float radius;
};
uniform Light lights[4];
uniform int n_lights;
uniform sampler2D albedo;
uniform vec3 eye;
in vec3 v_pos;
in vec3 v_normal;
in vec2 v_uv;
out vec4 frag;

float attenuation(float d, float r) {
    float x = clamp(1.0 - d / r, 0.0, 1.0);
    return x * x;
}

vec3 shade(Light l, vec3 n, vec3 base) {
    vec3 to_light = l.position - v_pos;
    float d = length(to_light);
    vec3 dir = to_light / max(d, 1e-4);
    float diffuse = max(dot(n, dir), 0.0);
    vec3 h = normalize(dir + normalize(eye - v_pos));
    float spec = pow(max(dot(n, h), 0.0), 32.0);
    return (base * diffuse + vec3(spec)) * l.color * attenuation(d, l.radius);
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 base = texture(albedo, v_uv).rgb;
    vec3 acc = vec3(0.03) * base;
    for (int i = 0; i < 4; ++i) {
        if (i >= n_lights)
            break;
        acc += shade(lights[i], n, base);
    }
    frag = vec4(pow(acc, vec3(1.0 / 2.2)), 1.0);
}
