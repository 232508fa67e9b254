/**
 * Surname inventories for splitting a Chinese or Korean name written as one unspaced token.
 * Written for this repository: common Chinese single-character surnames (simplified and
 * traditional forms), Chinese compound surnames, and Korean Hangul surnames and compounds.
 */

const CHINESE_SINGLE_SIMPLIFIED =
  "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏" +
  "吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫阎段雷侯龙史陶黎贺顾毛郝龚邵" +
  "万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘" +
  "祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟" +
  "艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞" +
  "姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝官封谈匡鞠惠荆乐冀郁胥南班储原栗燕" +
  "楚鄢劳谌奚皮粟冼蔺楼盘满闻位厉伊仝区郜海阚花权强帅屠豆朴盖练廉禹井祖漆巴丰支卿国狄平计索宣" +
  "晋相初门云容敬来扈晁芮都普阙浦戈伏鹿薄邸雍辜羊乌母裘亓修邰赫杭况那宿鲜印逯隆茹诸战慕危玉银" +
  "亢嵇公湛宾戎勾茅利於居揭干但尉斯元束檀衣信展阴昝智幸奉植衡富尧洪赖";

const CHINESE_SINGLE_TRADITIONAL =
  "張劉陳楊黃趙吳孫馬許韓馮鄧蕭葉蘇呂盧鍾譚陸賈韋鄒閻龍賀顧龔萬錢嚴湯溫莊聶魯關蘭紀畢單塗駱藍" +
  "鮑華饒繆車項蘆竇費衛臧閔鄔邊師欒榮鞏遲鄺荊樂鬱儲勞諶藺樓滿聞厲區闞權強帥豐晉雲羅鄭謝蔣程寧" +
  "龐顏喬賴鄒孫鄺歐於郁倪蕭鄔";

const CHINESE_COMPOUND = [
  "欧阳",
  "歐陽",
  "司马",
  "司馬",
  "诸葛",
  "諸葛",
  "上官",
  "东方",
  "東方",
  "皇甫",
  "尉迟",
  "尉遲",
  "公孙",
  "公孫",
  "慕容",
  "长孙",
  "長孫",
  "宇文",
  "司徒",
  "司空",
  "夏侯",
  "轩辕",
  "軒轅",
  "令狐",
  "独孤",
  "獨孤",
  "端木",
  "南宫",
  "南宮",
  "西门",
  "西門",
  "百里",
  "呼延",
  "万俟",
  "萬俟",
  "闻人",
  "聞人",
  "赫连",
  "赫連",
  "澹台",
  "澹臺",
  "公冶",
  "宗政",
  "濮阳",
  "濮陽",
  "淳于",
  "单于",
  "單于",
  "太叔",
  "申屠",
  "公羊",
  "钟离",
  "鍾離",
  "仲孙",
  "仲孫",
  "第五",
  "梁丘",
  "左丘",
  "东郭",
  "東郭",
  "拓跋",
  "范姜",
  "张简",
  "張簡",
  "诸葛",
  "司寇",
  "巫马",
  "巫馬",
  "谷梁",
  "穀梁",
  "鲜于",
  "鮮于",
];

const KOREAN_SINGLE = `김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 유 전 홍 고 문 양
  손 배 백 허 남 심 노 하 곽 성 차 주 우 구 민 진 나 지 엄 채 원 천 방 공 현 함 변 염 여 추 도 소 석
  선 설 마 길 연 위 표 명 기 반 라 왕 금 옥 육 인 맹 제 모 탁 국 어 은 편 용 예 경 봉 사 부 가 복 태
  목 형 피 두 감 음 빈 동 온 호 범 좌 팽 승 간 상 시 갈 단 견 당 화 창 옹 순 빙 대 점 묵 요 강 풍`;

const KOREAN_COMPOUND = `남궁 황보 제갈 선우 독고 사공 서문 동방 어금 망절 소봉`;

export const CHINESE_SURNAMES: ReadonlySet<string> = new Set([
  ...CHINESE_SINGLE_SIMPLIFIED,
  ...CHINESE_SINGLE_TRADITIONAL,
]);
export const CHINESE_COMPOUND_SURNAMES: ReadonlySet<string> = new Set(CHINESE_COMPOUND);
export const KOREAN_SURNAMES: ReadonlySet<string> = new Set(KOREAN_SINGLE.split(/\s+/));
export const KOREAN_COMPOUND_SURNAMES: ReadonlySet<string> = new Set(KOREAN_COMPOUND.split(/\s+/));
/** Korean compounds whose first syllable is rarely a surname with a name starting on the second. */
export const KOREAN_SAFE_COMPOUNDS: ReadonlySet<string> = new Set(["남궁", "제갈", "독고", "사공"]);
