uniform sampler2D tex;
void main() { gl_FragColor = vec4(texture2D(tex, gl_TexCoord[0].xy).rgb, gl_TexCoord[1].x); }
