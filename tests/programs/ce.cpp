#include <vector>
int main() { std::vector<int> v = 3; }
