import GroveReport
print("stub")
