// EXPECT: 0:3(5): error: break may only appear in a loop or a switch
void main() {
    break;
}
