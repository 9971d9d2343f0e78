uniform sampler2D tex;
uniform sampler2DShadow depth;
uniform sampler1D ramp;
uniform sampler3D volume;
varying vec3 normal_eye;

void main() {
    vec4 c = texture2D(tex, gl_TexCoord[0].st) * gl_Color;
    c *= shadow2D(depth, gl_TexCoord[1].xyz).r;
    c += texture1D(ramp, normal_eye.x) + texture3DProj(volume, gl_TexCoord[0]);
    c.rgb = mix(c.rgb, gl_Fog.color.rgb, clamp(gl_FogFragCoord, 0.0, 1.0));
    gl_FragColor = c + texture2DProj(tex, gl_TexCoord[0], 0.5);
    gl_FragDepth = gl_FragCoord.z;
}
