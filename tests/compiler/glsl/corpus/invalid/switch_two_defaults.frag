// EXPECT: 0:4(34): error: multiple default labels in one switch
#version 130
void main() {
    switch (1) { default: break; default: break; }
}
