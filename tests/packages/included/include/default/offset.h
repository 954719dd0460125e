#define OFFSET {{offset}}
