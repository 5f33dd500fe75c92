"""The Chinese characters printed on tiles, shared by every style that draws them."""

#: The numerals one to nine, as on the characters suit.
NUMERALS = "一二三四五六七八九"
#: East, South, West, North.
WIND_CHARS = {"EW": "東", "SW": "南", "WW": "西", "NW": "北"}
#: Plum, orchid, chrysanthemum, bamboo (flowers); spring, summer, autumn, winter (seasons).
FLOWER_CHARS = {"1F": "梅", "2F": "蘭", "3F": "菊", "4F": "竹", "1S": "春", "2S": "夏", "3S": "秋", "4S": "冬"}
#: Mainland sets print the simplified forms: 万 for 萬, 发 for 發, 东 for 東, 兰 for 蘭.
SIMPLIFIED = {"萬": "万", "發": "发", "東": "东", "蘭": "兰"}
