#include <iostream>
int main() { std::cout << "2 7 6\n9 5 1\n4 8 3\n"; }
