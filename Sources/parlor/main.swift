print("parlor")
