#version 100
precision mediump float;
uniform sampler2D image;
uniform vec2 texel;
uniform float strength;
varying vec2 v_uv;

vec4 blur(vec2 uv) {
    vec4 sum = vec4(0.0);
    float weights[5];
    weights[0] = 0.227; weights[1] = 0.194; weights[2] = 0.121; weights[3] = 0.054; weights[4] = 0.016;
    sum += texture2D(image, uv) * weights[0];
    for (int i = 1; i < 5; i++) {
        sum += texture2D(image, uv + vec2(float(i), 0.0) * texel) * weights[i];
        sum += texture2D(image, uv - vec2(float(i), 0.0) * texel) * weights[i];
    }
    return sum;
}

void main() {
    vec4 c = texture2D(image, v_uv);
    vec4 b = blur(v_uv);
    float luma = dot(c.rgb, vec3(0.299, 0.587, 0.114));
    gl_FragColor = mix(c, b, strength * (1.0 - luma));
}
