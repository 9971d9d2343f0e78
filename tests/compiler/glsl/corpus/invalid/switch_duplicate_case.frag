// EXPECT: 0:4(33): error: duplicate case value
#version 130
void main() {
    switch (1) { case 1: break; case 1: break; }
}
