#version 110
void main() { gl_TexCoord[1] = gl_TextureMatrix[1] * gl_MultiTexCoord0;
              gl_FrontColor = gl_LightSource[0].diffuse; gl_Position = ftransform(); }