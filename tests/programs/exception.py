raise ValueError("contestant bug")
