OFFSET = {{offset}}
