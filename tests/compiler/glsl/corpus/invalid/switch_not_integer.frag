// EXPECT: 0:4(13): error: switch-statement expression must be scalar integer
#version 130
void main() {
    switch (1.0) { default: break; }
}
