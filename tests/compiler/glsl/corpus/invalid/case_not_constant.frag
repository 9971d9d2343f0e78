// EXPECT: 0:5(23): error: case label must be a scalar integer constant expression
#version 130
uniform int u;
void main() {
    switch (1) { case u: break; }
}
