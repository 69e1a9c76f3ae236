//! Generated product, banner and logo images (SVG), so the demo shop needs no files
//! from the internet. Product pictures and banners carry no words: media is shared by
//! every language, so a headline belongs in the CMS, not in the picture.

/// What a product picture shows: a simple silhouette, recognisable at a glance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motif {
    Shirt,
    TShirt,
    Polo,
    Jacket,
    Sneaker,
    Boot,
    LowShoe,
    Vase,
    Blanket,
    Cushion,
    Candle,
    Table,
    Clock,
    Lamp,
    Frame,
    Basket,
    Knife,
    Pan,
    Board,
    Cup,
    Teapot,
    Bowl,
    Pot,
    Mill,
    Bottle,
    Headphones,
    Speaker,
    Watch,
    PowerBank,
    Charger,
    EReader,
    Webcam,
    Keyboard,
    Mouse,
    Tent,
    SleepingBag,
    Backpack,
    Stove,
    HeadTorch,
    Poles,
    Hammock,
    CoffeeBag,
    Tin,
}

/// The colours a motif is drawn in.
struct Palette {
    main: String,
    dark: String,
    light: String,
    accent: String,
    background: String,
}

/// A product's own colour (HSL), which its picture shows it in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tint {
    pub hue: u32,
    pub saturation: u32,
    pub lightness: u32,
}

impl Tint {
    pub const fn new(hue: u32, saturation: u32, lightness: u32) -> Tint {
        Tint {
            hue,
            saturation,
            lightness,
        }
    }
}

impl Palette {
    /// Product colours: the object in its tint on a pale background of the same hue (a
    /// little darker behind very light objects, so a white shirt stands out).
    fn product(tint: Tint) -> Self {
        let Tint {
            hue,
            saturation,
            lightness,
        } = tint;
        let background = if lightness > 80 { 86 } else { 93 };
        Palette {
            main: hsl(hue, saturation, lightness),
            dark: hsl(hue, saturation, lightness * 6 / 10),
            light: hsl(hue, saturation, (lightness + 32).min(90)),
            accent: hsl(hue + 150, 55, 55),
            background: hsl(hue, saturation.min(55), background),
        }
    }

    /// Banner colours: pale objects on a saturated backdrop.
    fn banner(hue: u32) -> Self {
        Palette {
            main: hsl(hue, 45, 88),
            dark: hsl(hue, 35, 68),
            light: "#ffffff".into(),
            accent: hsl(hue + 150, 60, 75),
            background: hsl(hue, 60, 40),
        }
    }
}

/// Parts the clothing motifs share (800x800 units, the object between about 110 and 690).
const LONG_SLEEVES: &str = r##"<path d="M300 170 L200 200 L150 310 L120 620 L195 630 L240 380 L240 650 L560 650 L560 380 L605 630 L680 620 L650 310 L600 200 L500 170 Q400 235 300 170 Z" fill="{main}"/>"##;
const SHORT_SLEEVES: &str = r##"<path d="M300 170 L210 200 L110 300 L180 390 L240 345 L240 640 L560 640 L560 345 L620 390 L690 300 L590 200 L500 170 Q400 250 300 170 Z" fill="{main}"/>"##;
const COLLAR: &str = r##"<path d="M300 168 Q400 135 500 168 L400 235 Z" fill="{dark}"/><path d="M300 165 L400 235 L340 280 Z M500 165 L400 235 L460 280 Z" fill="{light}"/>"##;

impl Motif {
    /// The motif's SVG elements in 800x800 units; `{main}`, `{dark}` … are the palette's colours.
    fn template(self) -> String {
        let parts: &[&str] = match self {
            Motif::Shirt => &[
                LONG_SLEEVES,
                COLLAR,
                r##"<path d="M400 235 V650" stroke="{dark}" stroke-width="6"/><path d="M400 310 v0 M400 390 v0 M400 470 v0 M400 550 v0" stroke="{light}" stroke-width="18" stroke-linecap="round"/><rect x="440" y="300" width="80" height="90" rx="8" fill="none" stroke="{dark}" stroke-width="6"/>"##,
            ],
            Motif::TShirt => &[
                SHORT_SLEEVES,
                r##"<path d="M300 170 Q400 250 500 170 L478 163 Q400 222 322 163 Z" fill="{dark}"/><path d="M240 560 H560" stroke="{dark}" stroke-width="8" opacity=".35"/>"##,
            ],
            Motif::Polo => &[
                SHORT_SLEEVES,
                COLLAR,
                r##"<path d="M400 235 V360" stroke="{dark}" stroke-width="6"/><path d="M400 280 v0 M400 330 v0" stroke="{light}" stroke-width="16" stroke-linecap="round"/>"##,
            ],
            Motif::Jacket => &[
                LONG_SLEEVES,
                r##"<path d="M300 170 L300 128 Q400 108 500 128 L500 170 Q400 232 300 170 Z" fill="{dark}"/><path d="M400 202 V650" stroke="{light}" stroke-width="9"/><path d="M275 525 L345 470 M525 525 L455 470" stroke="{dark}" stroke-width="12" stroke-linecap="round"/><path d="M240 600 H560" stroke="{dark}" stroke-width="14"/>"##,
            ],
            Motif::Sneaker => &[
                r##"<path d="M140 600 L140 410 Q140 370 185 368 L290 385 L320 330 Q350 315 385 322 L440 420 Q530 455 625 478 Q700 498 700 560 L700 600 Z" fill="{main}"/><path d="M230 540 Q400 525 570 470" stroke="{light}" stroke-width="20" fill="none" stroke-linecap="round"/><path d="M338 366 L370 344 M360 390 L393 367 M383 414 L416 391" stroke="{light}" stroke-width="12" stroke-linecap="round"/><rect x="125" y="585" width="590" height="45" rx="20" fill="#ffffff" stroke="{dark}" stroke-width="6"/>"##,
            ],
            Motif::Boot => &[
                r##"<path d="M170 600 L170 230 Q170 210 190 210 L380 210 Q400 210 400 230 L405 400 Q520 440 625 470 Q700 495 700 560 L700 600 Z" fill="{main}"/><rect x="170" y="205" width="230" height="42" rx="12" fill="{dark}"/><path d="M400 280 L360 290 M400 330 L360 340 M402 380 L362 390" stroke="{light}" stroke-width="12" stroke-linecap="round"/><rect x="155" y="585" width="560" height="50" rx="14" fill="{dark}"/>"##,
            ],
            Motif::LowShoe => &[
                r##"<path d="M140 600 L140 480 Q145 445 200 445 Q300 470 380 470 Q480 470 610 495 Q700 515 700 565 L700 600 Z" fill="{main}"/><path d="M200 458 Q300 492 390 480" stroke="{dark}" stroke-width="12" fill="none" stroke-linecap="round"/><path d="M430 480 Q470 525 520 490" stroke="{light}" stroke-width="14" fill="none" stroke-linecap="round"/><rect x="125" y="585" width="590" height="36" rx="16" fill="{dark}"/>"##,
            ],
            Motif::Vase => &[
                r##"<path d="M400 185 Q390 120 350 90 M400 185 Q420 110 470 80" stroke="{dark}" stroke-width="8" fill="none"/><circle cx="350" cy="90" r="24" fill="{accent}"/><circle cx="470" cy="80" r="24" fill="{accent}"/><path d="M335 190 L465 190 L455 250 Q590 330 565 480 Q545 610 470 640 L330 640 Q255 610 235 480 Q210 330 345 250 Z" fill="{main}"/><rect x="320" y="175" width="160" height="28" rx="12" fill="{dark}"/><path d="M245 420 Q400 460 555 420" stroke="{light}" stroke-width="16" fill="none"/>"##,
            ],
            Motif::Blanket => &[
                r##"<rect x="190" y="470" width="420" height="110" rx="40" fill="{main}"/><rect x="210" y="370" width="380" height="110" rx="40" fill="{light}"/><rect x="230" y="270" width="340" height="110" rx="40" fill="{main}"/><path d="M320 270 V580 M400 270 V580 M480 270 V580" stroke="{dark}" stroke-width="10" opacity=".35"/>"##,
            ],
            Motif::Cushion => &[
                r##"<path d="M210 220 Q400 265 590 220 Q545 400 590 580 Q400 535 210 580 Q255 400 210 220 Z" fill="{main}"/><path d="M210 220 L400 400 L590 220 M210 580 L400 400 L590 580" stroke="{dark}" stroke-width="6" opacity=".3"/><circle cx="400" cy="400" r="16" fill="{dark}"/>"##,
            ],
            Motif::Candle => &[
                r##"<path d="M400 180 Q450 250 400 295 Q350 250 400 180 Z" fill="#f5b83d"/><path d="M400 225 Q425 262 400 290 Q375 262 400 225 Z" fill="#fde68a"/><path d="M400 330 V292" stroke="{dark}" stroke-width="8"/><rect x="270" y="330" width="260" height="300" rx="30" fill="{main}"/><rect x="270" y="430" width="260" height="110" fill="{light}"/>"##,
            ],
            Motif::Table => &[
                r##"<rect x="300" y="235" width="120" height="65" rx="8" fill="{accent}"/><path d="M230 340 L200 640 M570 340 L600 640" stroke="{dark}" stroke-width="24" stroke-linecap="round"/><rect x="220" y="500" width="360" height="22" rx="8" fill="{main}"/><rect x="170" y="300" width="460" height="44" rx="14" fill="{main}"/>"##,
            ],
            Motif::Clock => &[
                r##"<circle cx="400" cy="400" r="230" fill="{main}"/><circle cx="400" cy="400" r="190" fill="#ffffff"/><path d="M400 225 V262 M400 538 V575 M225 400 H262 M538 400 H575" stroke="{dark}" stroke-width="12"/><path d="M400 400 L400 290 M400 400 L480 450" stroke="{dark}" stroke-width="14" stroke-linecap="round"/><circle cx="400" cy="400" r="16" fill="{dark}"/>"##,
            ],
            Motif::Lamp => &[
                r##"<rect x="388" y="380" width="24" height="220" fill="{dark}"/><ellipse cx="400" cy="612" rx="130" ry="32" fill="{dark}"/><path d="M290 190 L510 190 L590 390 L210 390 Z" fill="{main}"/><ellipse cx="400" cy="392" rx="190" ry="14" fill="{light}"/>"##,
            ],
            Motif::Frame => &[
                r##"<rect x="210" y="170" width="380" height="460" rx="10" fill="{dark}"/><rect x="245" y="205" width="310" height="390" fill="#ffffff"/><path d="M265 560 L360 420 L420 500 L460 450 L535 560 Z" fill="{main}"/><circle cx="480" cy="300" r="35" fill="{accent}"/>"##,
            ],
            Motif::Basket => &[
                r##"<path d="M200 330 L600 330 L560 630 L240 630 Z" fill="{main}"/><path d="M212 400 H588 M222 470 H578 M231 540 H569" stroke="{dark}" stroke-width="10"/><path d="M300 330 L290 630 M400 330 V630 M500 330 L510 630" stroke="{dark}" stroke-width="6" opacity=".5"/><rect x="185" y="310" width="430" height="38" rx="14" fill="{dark}"/>"##,
            ],
            Motif::Knife => &[
                r##"<g transform="rotate(-25 420 430)"><path d="M110 470 Q300 380 560 380 L560 480 Z" fill="#d5dbe3"/><path d="M110 470 L560 480" stroke="#aab3bd" stroke-width="4"/><rect x="555" y="368" width="26" height="124" rx="6" fill="#9aa3ad"/><rect x="578" y="392" width="200" height="76" rx="30" fill="{main}"/><circle cx="630" cy="430" r="9" fill="{light}"/><circle cx="705" cy="430" r="9" fill="{light}"/></g>"##,
            ],
            Motif::Pan => &[
                r##"<rect x="500" y="405" width="260" height="50" rx="25" fill="{dark}"/><circle cx="320" cy="430" r="200" fill="{dark}"/><circle cx="320" cy="430" r="165" fill="{main}"/><path d="M240 360 Q280 320 330 320" stroke="{light}" stroke-width="14" fill="none" stroke-linecap="round"/>"##,
            ],
            Motif::Board => &[
                r##"<rect x="365" y="120" width="70" height="160" rx="30" fill="{main}"/><circle cx="400" cy="168" r="16" fill="{dark}"/><rect x="240" y="240" width="320" height="420" rx="50" fill="{main}"/><path d="M290 330 Q400 310 510 340 M290 440 Q400 420 510 450 M290 550 Q400 530 510 560" stroke="{dark}" stroke-width="6" fill="none" opacity=".4"/>"##,
            ],
            Motif::Cup => &[
                r##"<path d="M350 290 Q320 240 350 200 Q380 160 350 120 M450 290 Q420 240 450 200 Q480 160 450 120" stroke="{dark}" stroke-width="14" fill="none" stroke-linecap="round" opacity=".35"/><ellipse cx="400" cy="590" rx="240" ry="38" fill="{dark}"/><path d="M560 385 Q660 380 650 450 Q640 515 545 505" stroke="{main}" stroke-width="30" fill="none"/><path d="M230 330 L570 330 Q560 560 400 570 Q240 560 230 330 Z" fill="{main}"/><ellipse cx="400" cy="330" rx="170" ry="26" fill="{light}"/><ellipse cx="400" cy="332" rx="148" ry="17" fill="#6b4226"/>"##,
            ],
            Motif::Teapot => &[
                r##"<path d="M590 380 Q690 400 660 500 Q640 560 570 540" stroke="{dark}" stroke-width="30" fill="none"/><path d="M225 440 Q140 420 120 330 L160 318 Q185 385 245 390 Z" fill="{main}"/><ellipse cx="400" cy="450" rx="200" ry="170" fill="{main}"/><path d="M295 305 Q400 235 505 305 Z" fill="{dark}"/><circle cx="400" cy="250" r="22" fill="{dark}"/><rect x="300" y="598" width="200" height="28" rx="10" fill="{dark}"/><path d="M260 470 Q400 510 540 470" stroke="{light}" stroke-width="14" fill="none"/>"##,
            ],
            Motif::Bowl => &[
                r##"<ellipse cx="400" cy="380" rx="240" ry="40" fill="{dark}"/><ellipse cx="330" cy="360" rx="75" ry="38" fill="#5aa35a"/><ellipse cx="455" cy="352" rx="85" ry="42" fill="#3f8f4f"/><circle cx="395" cy="345" r="30" fill="#d9483b"/><path d="M160 380 L640 380 Q630 600 400 620 Q170 600 160 380 Z" fill="{main}"/><path d="M220 450 Q400 490 580 450" stroke="{light}" stroke-width="14" fill="none"/>"##,
            ],
            Motif::Pot => &[
                r##"<rect x="140" y="360" width="80" height="30" rx="14" fill="{dark}"/><rect x="580" y="360" width="80" height="30" rx="14" fill="{dark}"/><path d="M210 330 L590 330 L575 610 Q575 635 550 635 L250 635 Q225 635 225 610 Z" fill="{main}"/><path d="M190 330 Q400 210 610 330 Z" fill="{dark}"/><rect x="370" y="228" width="60" height="30" rx="12" fill="{dark}"/><rect x="265" y="380" width="24" height="200" rx="12" fill="{light}" opacity=".7"/>"##,
            ],
            Motif::Mill => &[
                r##"<circle cx="400" cy="140" r="22" fill="{dark}"/><path d="M360 150 L440 150 L450 230 L420 260 Q500 330 480 460 L500 610 L300 610 L320 460 Q300 330 380 260 L350 230 Z" fill="{main}"/><rect x="300" y="560" width="200" height="50" rx="10" fill="{dark}"/><path d="M355 300 Q340 400 350 520" stroke="{light}" stroke-width="12" fill="none" stroke-linecap="round"/>"##,
            ],
            Motif::Bottle => &[
                r##"<path d="M360 170 L440 170 L440 280 Q560 340 560 480 L560 600 Q560 640 520 640 L280 640 Q240 640 240 600 L240 480 Q240 340 360 280 Z" fill="{main}"/><path d="M240 430 H560 V600 Q560 640 520 640 L280 640 Q240 640 240 600 Z" fill="{dark}" opacity=".45"/><rect x="350" y="140" width="100" height="44" rx="10" fill="{dark}"/><rect x="280" y="460" width="22" height="140" rx="11" fill="{light}" opacity=".8"/>"##,
            ],
            Motif::Headphones => &[
                r##"<path d="M230 470 Q230 200 400 200 Q570 200 570 470" stroke="{dark}" stroke-width="40" fill="none" stroke-linecap="round"/><rect x="170" y="410" width="120" height="200" rx="50" fill="{main}"/><rect x="510" y="410" width="120" height="200" rx="50" fill="{main}"/><rect x="272" y="440" width="30" height="140" rx="12" fill="{dark}"/><rect x="498" y="440" width="30" height="140" rx="12" fill="{dark}"/>"##,
            ],
            Motif::Speaker => &[
                r##"<rect x="240" y="200" width="320" height="430" rx="60" fill="{dark}"/><circle cx="400" cy="340" r="80" fill="{main}"/><circle cx="400" cy="340" r="32" fill="{dark}"/><circle cx="400" cy="520" r="60" fill="{main}"/><circle cx="400" cy="520" r="24" fill="{dark}"/>"##,
            ],
            Motif::Watch => &[
                r##"<rect x="330" y="130" width="140" height="540" rx="30" fill="{dark}"/><rect x="270" y="270" width="260" height="260" rx="60" fill="{main}"/><rect x="300" y="300" width="200" height="200" rx="40" fill="#1f2430"/><path d="M400 400 V340 M400 400 L445 425" stroke="{light}" stroke-width="12" stroke-linecap="round"/><rect x="528" y="360" width="20" height="50" rx="6" fill="{dark}"/>"##,
            ],
            Motif::PowerBank => &[
                r##"<rect x="230" y="250" width="340" height="300" rx="40" fill="{main}"/><path d="M420 320 L350 420 L400 420 L380 490 L460 380 L410 380 Z" fill="{light}"/><path d="M290 530 h0 M330 530 h0 M370 530 h0" stroke="{dark}" stroke-width="14" stroke-linecap="round"/><rect x="570" y="370" width="24" height="60" rx="6" fill="{dark}"/>"##,
            ],
            Motif::Charger => &[
                r##"<rect x="340" y="200" width="30" height="110" rx="8" fill="#9aa3ad"/><rect x="430" y="200" width="30" height="110" rx="8" fill="#9aa3ad"/><path d="M400 540 Q400 640 520 650 Q640 660 640 560" stroke="{dark}" stroke-width="20" fill="none" stroke-linecap="round"/><rect x="290" y="300" width="220" height="240" rx="40" fill="{main}"/><circle cx="400" cy="420" r="20" fill="{light}"/>"##,
            ],
            Motif::EReader => &[
                r##"<rect x="260" y="150" width="280" height="500" rx="36" fill="{dark}"/><rect x="290" y="190" width="220" height="390" rx="10" fill="#f4f1ea"/><path d="M320 240 H480 M320 280 H480 M320 320 H440 M320 380 H480 M320 420 H460 M320 460 H480 M320 500 H420" stroke="#6b7280" stroke-width="10" opacity=".5"/>"##,
            ],
            Motif::Webcam => &[
                r##"<path d="M400 530 V600 M300 620 H500" stroke="{dark}" stroke-width="24" stroke-linecap="round"/><circle cx="400" cy="360" r="170" fill="{dark}"/><circle cx="400" cy="360" r="100" fill="{main}"/><circle cx="400" cy="360" r="50" fill="#1f2430"/><circle cx="382" cy="342" r="14" fill="#ffffff"/>"##,
            ],
            Motif::Keyboard => &[
                r##"<defs><pattern id="keys" x="135" y="325" width="50" height="50" patternUnits="userSpaceOnUse"><rect x="5" y="5" width="40" height="40" rx="7" fill="{light}"/></pattern></defs><rect x="110" y="300" width="580" height="240" rx="24" fill="{dark}"/><rect x="135" y="325" width="530" height="150" fill="url(#keys)"/><rect x="260" y="480" width="280" height="40" rx="7" fill="{light}"/>"##,
            ],
            Motif::Mouse => &[
                r##"<rect x="290" y="200" width="220" height="380" rx="110" fill="{main}"/><path d="M400 200 V340" stroke="{dark}" stroke-width="8"/><rect x="388" y="250" width="24" height="60" rx="12" fill="{dark}"/>"##,
            ],
            Motif::Tent => &[
                r##"<path d="M400 170 L400 125" stroke="{dark}" stroke-width="10" stroke-linecap="round"/><polygon points="400,170 690,610 110,610" fill="{main}"/><polygon points="400,300 490,610 310,610" fill="{dark}"/><polygon points="400,300 490,610 440,610" fill="{light}"/><rect x="80" y="603" width="640" height="16" rx="8" fill="{dark}"/>"##,
            ],
            Motif::SleepingBag => &[
                r##"<rect x="160" y="300" width="460" height="260" rx="130" fill="{main}"/><circle cx="490" cy="430" r="130" fill="{dark}"/><circle cx="490" cy="430" r="85" fill="{main}"/><circle cx="490" cy="430" r="38" fill="{dark}"/><rect x="270" y="294" width="30" height="272" rx="8" fill="{light}"/>"##,
            ],
            Motif::Backpack => &[
                r##"<path d="M360 228 Q400 160 440 228" stroke="{dark}" stroke-width="18" fill="none"/><rect x="240" y="220" width="320" height="420" rx="80" fill="{main}"/><path d="M240 320 Q240 220 400 220 Q560 220 560 320 L560 360 Q400 400 240 360 Z" fill="{dark}"/><rect x="385" y="355" width="30" height="60" rx="6" fill="{light}"/><rect x="300" y="450" width="200" height="140" rx="30" fill="{dark}"/>"##,
            ],
            Motif::Stove => &[
                r##"<path d="M250 310 Q400 170 550 310" stroke="{dark}" stroke-width="14" fill="none"/><rect x="250" y="300" width="300" height="200" rx="20" fill="{main}"/><path d="M340 560 Q320 530 340 505 Q360 530 340 560 Z M400 560 Q380 525 400 495 Q420 525 400 560 Z M460 560 Q440 530 460 505 Q480 530 460 560 Z" fill="#f59e0b"/><path d="M300 560 L500 560 L540 640 L260 640 Z" fill="{dark}"/>"##,
            ],
            Motif::HeadTorch => &[
                r##"<ellipse cx="400" cy="400" rx="250" ry="120" fill="none" stroke="{dark}" stroke-width="36"/><path d="M360 520 L260 660 L540 660 L440 520 Z" fill="#fde68a" opacity=".7"/><rect x="310" y="400" width="180" height="140" rx="30" fill="{main}"/><circle cx="400" cy="470" r="45" fill="{light}"/>"##,
            ],
            Motif::Poles => &[
                r##"<path d="M310 200 L420 650 M490 200 L380 650" stroke="{dark}" stroke-width="16" stroke-linecap="round"/><path d="M300 140 L322 240 M500 140 L478 240" stroke="{main}" stroke-width="46" stroke-linecap="round"/><ellipse cx="412" cy="610" rx="40" ry="10" fill="{main}"/><ellipse cx="388" cy="610" rx="40" ry="10" fill="{main}"/>"##,
            ],
            Motif::Hammock => &[
                r##"<rect x="90" y="150" width="40" height="500" rx="12" fill="{dark}"/><rect x="670" y="150" width="40" height="500" rx="12" fill="{dark}"/><path d="M130 220 L180 310 M670 220 L620 310" stroke="{dark}" stroke-width="10"/><path d="M170 300 Q400 660 630 300 Q400 520 170 300 Z" fill="{main}"/><path d="M230 380 Q400 560 570 380" stroke="{light}" stroke-width="12" fill="none"/>"##,
            ],
            Motif::CoffeeBag => &[
                r##"<path d="M270 230 L530 230 L570 640 L230 640 Z" fill="{main}"/><path d="M270 230 L300 160 L500 160 L530 230 Z" fill="{dark}"/><rect x="300" y="360" width="200" height="160" rx="20" fill="{light}"/><ellipse cx="400" cy="440" rx="45" ry="60" fill="#6b4226"/><path d="M400 385 Q380 440 400 495" stroke="{light}" stroke-width="8" fill="none"/>"##,
            ],
            Motif::Tin => &[
                r##"<rect x="260" y="260" width="280" height="370" rx="24" fill="{main}"/><rect x="245" y="220" width="310" height="70" rx="18" fill="{dark}"/><rect x="260" y="380" width="280" height="150" fill="{light}"/><path d="M400 400 Q470 440 400 510 Q330 440 400 400 Z" fill="#3f8f4f"/><path d="M400 412 V498" stroke="{light}" stroke-width="5"/>"##,
            ],
        };
        parts.concat()
    }

    /// The motif drawn in `palette`.
    fn draw(self, palette: &Palette) -> String {
        self.template()
            .replace("{main}", &palette.main)
            .replace("{dark}", &palette.dark)
            .replace("{light}", &palette.light)
            .replace("{accent}", &palette.accent)
    }
}

/// Escapes text for SVG content.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A colour from a hue (0..360) as an HSL string.
fn hsl(hue: u32, saturation: u32, lightness: u32) -> String {
    format!("hsl({},{}%,{}%)", hue % 360, saturation, lightness)
}

/// A square product picture (800x800) of `motif` in `tint`. View 0 is the cover; other
/// views show the object from the other side on a backdrop, so a gallery's pictures differ.
pub fn product(motif: Motif, tint: Tint, view: u32) -> String {
    let palette = Palette::product(tint);
    let (hue, saturation) = (tint.hue, tint.saturation);
    let shadow = format!(
        r##"<ellipse cx="400" cy="655" rx="240" ry="22" fill="{}"/>"##,
        hsl(hue, saturation.min(35), 78)
    );
    let (backdrop, transform) = if view == 0 {
        (String::new(), "")
    } else {
        (
            format!(
                r##"<circle cx="400" cy="400" r="330" fill="{}"/>"##,
                hsl(hue, saturation.min(60), 82)
            ),
            r##" transform="matrix(-1 0 0 1 800 0)""##,
        )
    };
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800"><rect width="800" height="800" fill="{}"/>{backdrop}{shadow}<g{transform}>{}</g></svg>"##,
        palette.background,
        motif.draw(&palette)
    )
}

/// A wide banner (1600x600): a gradient in `hue`, soft circles, and `motifs` in pale
/// colours on the right, leaving the left free for text laid over it.
pub fn banner(hue: u32, motifs: &[Motif]) -> String {
    // Clear of the edges a boxed (narrower) block crops off.
    scene(1600, 600, hue, motifs, (840.0, 1480.0))
}

/// An image slider's slide (1600x700, the slider's 16:7): `motifs` across the middle.
pub fn slide(hue: u32, motifs: &[Motif]) -> String {
    scene(1600, 700, hue, motifs, (250.0, 1350.0))
}

/// A teaser picture (1200x900): like a banner, with `motifs` across the middle.
pub fn teaser(hue: u32, motifs: &[Motif]) -> String {
    scene(1200, 900, hue, motifs, (150.0, 1050.0))
}

/// A gradient backdrop with `motifs` side by side between `span.0` and `span.1`.
fn scene(width: u32, height: u32, hue: u32, motifs: &[Motif], span: (f64, f64)) -> String {
    let palette = Palette::banner(hue);
    let (w, h) = (f64::from(width), f64::from(height));
    let slot = (span.1 - span.0) / motifs.len().max(1) as f64;
    // Each motif's 800-unit tile scaled to fit its slot and most of the height.
    let scale = (slot / 800.0).min(h * 0.8 / 800.0);
    let drawn: String = motifs
        .iter()
        .enumerate()
        .map(|(index, motif)| {
            let x = span.0 + slot * (index as f64 + 0.5) - 400.0 * scale;
            let y = h * 0.55 - 400.0 * scale;
            format!(
                r##"<g transform="translate({x:.1} {y:.1}) scale({scale:.3})">{}</g>"##,
                motif.draw(&palette)
            )
        })
        .collect();
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{}"/><stop offset="1" stop-color="{}"/></linearGradient></defs><rect width="{width}" height="{height}" fill="url(#g)"/><circle cx="{:.0}" cy="{:.0}" r="{:.0}" fill="#ffffff" opacity=".08"/><circle cx="{:.0}" cy="{:.0}" r="{:.0}" fill="#ffffff" opacity=".06"/>{drawn}</svg>"##,
        hsl(hue, 60, 45),
        hsl(hue + 40, 60, 30),
        w * 0.8,
        h * 0.2,
        h * 0.7,
        w * 0.1,
        h,
        h * 0.5,
    )
}

/// A manufacturer's logo (800x800): the brand name on a badge. A brand name is the
/// same in every language, so a logo may carry it.
pub fn logo(name: &str, hue: u32) -> String {
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800"><rect width="800" height="800" fill="{}"/><circle cx="400" cy="400" r="300" fill="{}"/><text x="400" y="425" font-family="sans-serif" font-size="76" font-weight="700" text-anchor="middle" fill="#ffffff">{}</text></svg>"##,
        hsl(hue, 55, 92),
        hsl(hue, 50, 38),
        escape(name)
    )
}

#[cfg(test)]
mod tests {
    use super::Motif;

    const ALL: &[Motif] = &[
        Motif::Shirt,
        Motif::TShirt,
        Motif::Polo,
        Motif::Jacket,
        Motif::Sneaker,
        Motif::Boot,
        Motif::LowShoe,
        Motif::Vase,
        Motif::Blanket,
        Motif::Cushion,
        Motif::Candle,
        Motif::Table,
        Motif::Clock,
        Motif::Lamp,
        Motif::Frame,
        Motif::Basket,
        Motif::Knife,
        Motif::Pan,
        Motif::Board,
        Motif::Cup,
        Motif::Teapot,
        Motif::Bowl,
        Motif::Pot,
        Motif::Mill,
        Motif::Bottle,
        Motif::Headphones,
        Motif::Speaker,
        Motif::Watch,
        Motif::PowerBank,
        Motif::Charger,
        Motif::EReader,
        Motif::Webcam,
        Motif::Keyboard,
        Motif::Mouse,
        Motif::Tent,
        Motif::SleepingBag,
        Motif::Backpack,
        Motif::Stove,
        Motif::HeadTorch,
        Motif::Poles,
        Motif::Hammock,
        Motif::CoffeeBag,
        Motif::Tin,
    ];

    #[test]
    fn product_pictures_carry_no_words_and_every_colour_is_filled_in() {
        for motif in ALL {
            for view in 0..2 {
                let svg = super::product(*motif, super::Tint::new(200, 50, 48), view);
                assert!(
                    svg.starts_with("<svg") && svg.ends_with("</svg>"),
                    "{motif:?}"
                );
                assert!(!svg.contains("<text"), "{motif:?} has words");
                assert!(
                    !svg.contains('{'),
                    "{motif:?} has an unfilled colour: {svg}"
                );
            }
        }
    }

    #[test]
    fn pictures_differ_by_motif_hue_and_view() {
        let red = super::Tint::new(6, 65, 46);
        let cover = super::product(Motif::Sneaker, red, 0);
        assert_ne!(cover, super::product(Motif::Boot, red, 0));
        assert_ne!(
            cover,
            super::product(Motif::Sneaker, super::Tint::new(215, 60, 45), 0)
        );
        assert_ne!(cover, super::product(Motif::Sneaker, red, 1));
        assert!(
            cover.contains("hsl(6,65%,46%)"),
            "the object is drawn in its tint"
        );
        let mut templates: Vec<String> = ALL.iter().map(|motif| motif.template()).collect();
        templates.sort();
        templates.dedup();
        assert_eq!(templates.len(), ALL.len(), "two motifs look the same");
    }

    #[test]
    fn banners_and_teasers_carry_no_words() {
        for svg in [
            super::banner(100, &[Motif::Jacket, Motif::Tent, Motif::Cup]),
            super::teaser(20, &[Motif::Sneaker, Motif::Boot]),
            super::banner(200, &[]),
        ] {
            assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
            assert!(!svg.contains("<text"));
            assert!(!svg.contains('{'));
        }
        assert_eq!(
            super::banner(100, &[Motif::Tent, Motif::Cup])
                .matches("<g transform")
                .count(),
            2
        );
    }

    #[test]
    fn logos_keep_the_escaped_brand_name() {
        let svg = super::logo("Salt & <Pepper>", 10);
        assert!(svg.contains(">Salt &amp; &lt;Pepper&gt;</text>"));
        assert!(svg.starts_with("<svg"));
    }
}
