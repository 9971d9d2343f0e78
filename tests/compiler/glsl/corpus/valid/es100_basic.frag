#version 100
#extension GL_OES_standard_derivatives : enable
precision mediump float;
uniform sampler2D u_tex;
uniform samplerCube u_env;
varying vec2 v_texcoord;
varying lowp vec4 v_color;

void main() {
    vec4 c = texture2D(u_tex, v_texcoord) * v_color;
    c += textureCube(u_env, vec3(v_texcoord, 1.0)) * 0.25;
    float w = fwidth(v_texcoord.x) + dFdx(c.r) + dFdy(c.g);
    if (c.a < 0.1)
        discard;
    gl_FragData[0] = vec4(c.rgb, w) * (gl_FrontFacing ? 1.0 : 0.5) + gl_FragCoord * 0.0;
}
