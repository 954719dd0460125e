(defun broken (x)
  (format t "~a~%" x)
