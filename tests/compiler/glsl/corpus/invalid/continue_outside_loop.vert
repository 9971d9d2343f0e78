// EXPECT: 0:3(5): error: continue may only appear in a loop
void main() {
    continue;
}
