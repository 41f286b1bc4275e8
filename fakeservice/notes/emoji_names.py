"""The emoji names an award accepts (a common subset of the service's emoji set) and the
aliases it normalizes (``+1`` is ``thumbsup``, ``-1`` is ``thumbsdown``)."""

from __future__ import annotations

ALIASES: dict[str, str] = {"+1": "thumbsup", "-1": "thumbsdown"}

_WORDS = """
    100 1234 8ball a ab abc airplane alarm_clock alien ambulance anchor angel anger
    angry anguished ant apple arrow_down arrow_left arrow_right arrow_up art astonished
    atom baby baby_bottle balloon bamboo banana bank bar_chart baseball basketball bat
    bath battery beach bear bee beer beers beetle bell bento bicyclist bike bird
    birthday black_heart blossom blue_heart blush boar bomb book bookmark books boom
    boot bouquet bow bowling boy bread briefcase broken_heart bug bulb bus butterfly
    cactus cake calendar camera cancer candy car cat chart_with_downwards_trend
    chart_with_upwards_trend checkered_flag cherries chicken chocolate_bar christmas_tree
    clap clapper clipboard clock1 closed_book cloud clown coffee cold_sweat computer
    confetti_ball confounded confused construction cookie cool cop copyright corn cow
    crab crown cry crying_cat_face crystal_ball cupid curly_loop cyclone dancer dart
    dash date deer desktop disappointed disappointed_relieved dizzy dizzy_face dog
    dolphin door doughnut dragon dragon_face dress droplet duck eagle ear earth_africa
    earth_americas egg eggplant eight elephant envelope euro exclamation expressionless
    eyeglasses eyes face_palm facepunch factory fallen_leaf family fax fearful feet
    ferris_wheel file_folder fire fire_engine fireworks first_place fish fist five flag_white
    flags flashlight floppy_disk flushed fog football fork_and_knife fountain four
    four_leaf_clover fox frog frowning fuelpump full_moon game_die gear gem gift gift_heart
    ghost girl globe_with_meridians goat golf grapes green_apple green_heart grey_exclamation
    grey_question grimacing grin grinning guitar gun hamburger hammer hamster hand
    handshake hankey hash hatching_chick headphones hear_no_evil heart heart_eyes
    heartbeat heartpulse hearts heavy_check_mark heavy_multiplication_x helicopter herb
    hibiscus high_brightness hocho honey_pot horse hospital hotel hourglass house hugging
    hushed ice_cream icecream id imp inbox_tray incoming_envelope information_source
    innocent interrobang iphone jack_o_lantern japanese_goblin jeans joy joy_cat key
    keyboard kiss kissing kissing_heart kiwi koala label ladybug laughing leaves ledger
    lemon leopard light_rail link lion lips lipstick lock lock_with_ink_pen lollipop
    loudspeaker love_letter low_brightness mag mag_right mailbox man maple_leaf mask
    meat_on_bone medal mega memo metal microphone microscope milky_way minidisc
    money_with_wings moneybag monkey monkey_face moon mortar_board mountain mouse
    movie_camera moyai muscle mushroom musical_note musical_score mute nail_care
    necktie nerd nine no_entry no_entry_sign no_mouth nose notebook notes nut_and_bolt
    o ocean octopus office ok ok_hand old_key one open_book open_hands open_mouth orange_book
    outbox_tray owl ox package page_facing_up pager palm_tree panda_face paperclip
    parking partly_sunny party_popper passport_control peach pear pencil pencil2 penguin
    pensive performing_arts persevere person_frowning phone pig pill pineapple pizza
    point_down point_left point_right point_up pizza poop popcorn postbox potato pouch
    pound pray prayer_beads pushpin question rabbit racehorse radio rage railway_car
    rainbow raised_hand raised_hands raising_hand ram ramen rat recycle red_circle
    relaxed relieved repeat restroom revolving_hearts ribbon rice ring robot rocket
    rofl rolling_eyes rooster rose rotating_light rugby_football runner running_shirt_with_sash
    sake sandal santa satellite satisfied saxophone scissors scorpion scream scroll
    seedling see_no_evil seven shaved_ice sheep shell ship shirt shit shower
    shrug signal_strength six ski skull sleeping sleepy slight_frown slight_smile
    smile smile_cat smiley smiley_cat smiling_imp smirk smirk_cat smoking snail snake
    snowflake snowman sob soccer sos sparkle sparkler sparkles sparkling_heart
    speak_no_evil speaker speech_balloon spider spider_web star star2 stars
    stuck_out_tongue stuck_out_tongue_closed_eyes stuck_out_tongue_winking_eye sun_with_face
    sunflower sunglasses sunny sunrise surfer sushi sweat sweat_drop sweat_smile
    sweet_potato swimmer syringe tada tangerine taxi tea telephone telescope tennis
    tent thinking thought_balloon three thumbsdown thumbsup ticket tiger tired_face tm
    toilet tomato tongue top tophat tractor traffic_light train trophy tropical_fish
    truck trumpet tulip turtle tv two two_hearts umbrella unamused unicorn unlock
    up upside_down v vertical_traffic_light vhs vibration_mode video_camera video_game
    violin volcano volleyball vs walking waning_crescent_moon warning watch
    watermelon wave wavy_dash wc weary wedding whale white_check_mark white_flower
    white_heart wind_chime wine_glass wink wolf woman worried wrench x yellow_heart yen
    yum zap zero zipper_mouth zzz
    """

NAMES: frozenset[str] = frozenset(_WORDS.split())
