IS_HIP = False
