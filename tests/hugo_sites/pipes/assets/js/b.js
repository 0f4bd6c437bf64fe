var b = 2;
