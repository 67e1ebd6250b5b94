from lib.utils.env import IS_HIP
