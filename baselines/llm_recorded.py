"""The SWORDS paper's GPT-3 davinci completions for 43 SWORDS v0.8 dev targets (November 2020).

From the SWORDS authors' release (github.com/p-lambda/swords, assets/public/raw/methods/gpt3/
swords-v0.8_dev-valid_gpt3.out.json.gz; CC-BY-3.0-US, Lee et al. 2021), keeping of each completion object
its text and finish reason (the logprobs are dropped). Bundled as Python so that it installs with the
package; tests/test_llm.py checks it against the upstream file when that is at hand. 37 of the 43 target
ids are SWORDS v1.1 dev targets; the other 6 did not survive into v1.x.
"""

# ruff: noqa: E501  (the completions are kept verbatim, one per line)

GPT3_DAVINCI_SWORDS_V08_DEV: dict[str, dict] = {
    "t:09ebfa5992f5ab9081cb6065f04e9a3718322923": {
        "finish_reason": "length",
        "text": " proceed, move, head, go on, continue, proceed with, carry on, get on, get along, get by, get ahead, get around, get through, get over, get away, get off, get by, get away with, get by with, get away, get by, get away, get by, get away with, get by with, get away, get by, get away with, get by with, get away, get by, get away with, get by with, get away, get by, get away with, get by with, get away, get by, get away with, get",
    },
    "t:2b3c36b764020f5160c6df32e776563ec83bc350": {
        "finish_reason": "length",
        "text": " thus, in this way, in that way, in such a manner, in the same way, in the same manner, in the same way that, in the same manner that, in the same way as, in the same way as if, in the same way as though, in the same way as if, in the same way as if, in the same way as if, in the same way as if, in the same way as if, in the same way as if, in the same way as if, in the same way as if, in the same way as if, in the same way as if, in",
    },
    "t:75908b558dc7ff207e5d7026e98ba5bf66941301": {
        "finish_reason": "length",
        "text": " physical condition, physical state, physical well-being, physical fitness, physical condition, physical state, physical well-being, physical fitness, physical condition, physical state, physical well-being, physical fitness, physical condition, physical state, physical well-being, physical fitness, physical condition, physical state, physical well-being, physical fitness, physical condition, physical state, physical well-being, physical fitness, physical condition, physical state, physical well-being, physical fitness, physical condition, physical state, physical well-being, physical fitness, physical condition, physical state, physical well-being, physical fitness, physical condition",
    },
    "t:f54b9519896c48b8acab271a10236f8cc75c96c8": {
        "finish_reason": "length",
        "text": " stream, current, tide, movement, course, passage, streamlet, flowage, flux, flood, torrent, rush, surge, wave, flux, flood, spate, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood, spate, flood,",
    },
    "t:2a90921463732a1522a6960217685331b359993a": {
        "finish_reason": "length",
        "text": " averred, affirmed, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred, averred,",
    },
    "t:362589f6dcbed638ce792b0cf7f41f794038dcef": {
        "finish_reason": "length",
        "text": " administration, government agency, government body, government department, government organization, government office, government branch, government bureau, government agency, government organ, government service, government agency, government authority, government official, government employee, government worker, government employee, government official, government employee, government worker, government official, government employee, government worker, government official, government employee, government worker, government official, government employee, government worker, government official, government employee, government worker, government official, government employee, government worker, government official, government employee, government worker, government official, government employee, government worker, government official, government employee,",
    },
    "t:e5d42d07e5dda6382a3e1f967f2ca119c5b6a404": {
        "finish_reason": "length",
        "text": " working on, working at, working in, working for, working towards, working with, working under, working together, working out, working up, working through, working around, working off, working over, working away, working out, working up, working through, working around, working off, working over, working away, working out, working up, working through, working around, working off, working over, working away, working out, working up, working through, working around, working off, working over, working away, working out, working up, working through, working around, working off, working over, working away",
    },
    "t:a99484d6fdeefdaf40a389842c970904e1938675": {
        "finish_reason": "length",
        "text": " payment, fee, charge, cost, expense, remuneration, price, outlay, expenditure, disbursement, investment, contribution, donation, gift, gratuity, tip, bribe, payoff, remittance, subsidy, subsidy, handout, grant, subsidy, subvention, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy, subsidy",
    },
    "t:b5fe3274c71cc01d03995602a44e8bc44da997bc": {
        "finish_reason": "stop",
        "text": " harmless, harmless person, harmless people, harmless individual, harmless people, harmless man, harmless woman, harmless child, harmless children, harmless people, harmless man, harmless woman, harmless child, harmless children",
    },
    "t:cd6ca63d0f00897f4cf0eeda54cc6dfb3711d012": {
        "finish_reason": "length",
        "text": " confident, positive, convinced, certain, definite, sure, definite, positive, definite, confident, sure of, sure that, positive that, positive, sure of, positive, sure, positive, confident, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive, sure, positive,",
    },
    "t:2474e76ce72ab58cb3ad315962ef225a238d4208": {
        "finish_reason": "stop",
        "text": " amplifier, enhancer, intensifier, magnifier, booster, augmenter, extender, enlarger, multiplier, amplifier, intensifier, magnifier, booster, augmenter, extender, enlarger, multiplier",
    },
    "t:e55ae6cccfbd9868a9f5b19972e5b7f1eed4cd2c": {
        "finish_reason": "length",
        "text": " allowed, authorized, permitted, licensed, sanctioned, allowed to, allowed on, allowed to enter, allowed to fly, allowed to go, allowed to pass, allowed to travel, allowed to drive, allowed to enter, allowed to leave, allowed to enter, allowed to exit, allowed to enter, allowed to leave, allowed to pass, allowed to cross, allowed to enter, allowed to leave, allowed to enter, allowed to leave, allowed to enter, allowed to leave, allowed to enter, allowed to leave, allowed to enter, allowed to leave, allowed to enter, allowed to leave, allowed to enter, allowed to leave,",
    },
    "t:71992ec165ae2faf322ad592c0559ffa10d8e1e0": {
        "finish_reason": "length",
        "text": " believe, suppose, imagine, reckon, guess, presume, speculate, surmise, conjecture, hypothesize, deduce, conclude, infer, gather, judge, opine, deem, think over, mull over, cogitate, muse, ruminate, reflect, meditate, contemplate, muse on, muse over, cogitate on, muse upon, ponder, deliberate, cogitate about, consider, weigh, ponder over, deliberate on, deliberate about, deliberate upon, deliberate in one's mind, deliberate mentally, cogitate mentally, think out, think up, think through, think over, think up, think out,",
    },
    "t:7f1d26dea59df9f9cbf34e416ff89ede8e0f9aea": {
        "finish_reason": "length",
        "text": " sum, aggregate, amount, sum total, whole, sum of its parts, sum total of, sum of, sum, total, summing up, sum total, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts, sum of the parts",
    },
    "t:897fe9be41b3c91c90359585b17b8d4ff0012443": {
        "finish_reason": "length",
        "text": " blameless, guiltless, harmless, blameless, guiltless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless, harmless,",
    },
    "t:2cac286b85ca6e58989b4855d78722d76fc9538c": {
        "finish_reason": "length",
        "text": " largest, biggest, greatest, maximum, maximum size, maximum capacity, maximum number, maximum quantity, maximum amount, maximum degree, maximum level, maximum rank, maximum value, maximum height, maximum width, maximum depth, maximum length, maximum weight, maximum age, maximum time, maximum speed, maximum temperature, maximum pressure, maximum value, maximum quantity, maximum number, maximum capacity, maximum degree, maximum rank, maximum age, maximum time, maximum speed, maximum temperature, maximum pressure, maximum value, maximum quantity, maximum number, maximum capacity, maximum degree, maximum rank, maximum age, maximum time, maximum speed, maximum temperature,",
    },
    "t:55a604464059a6ade267fd915152d2496c070152": {
        "finish_reason": "stop",
        "text": " journey, voyage, excursion, tour, passage, flight, ride, passage, trip, expedition, voyage, journey, peregrination, pilgrimage, odyssey, sojourn, tour, passage, flight, ride, passage, trip, expedition, voyage, journey, peregrination, pilgrimage, odyssey, sojourn",
    },
    "t:683b4213199d861ede76ec68d9ab81e122161444": {
        "finish_reason": "length",
        "text": " named, known as, called, known as, referred to as, known as, called, named, known as, called, known as, referred to as, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called, known as, called,",
    },
    "t:37ae0994ea35c48a795d5540834893830d26c9be": {
        "finish_reason": "length",
        "text": " go back, come back, go home, come home, go back to, come back to, go back to the place where one lives, come back to the place where one lives, go back to the place where one is from, come back to the place where one is from, go back to the place where one was born, come back to the place where one was born, go back to the place where one grew up, come back to the place where one grew up, go back to the place where one was raised, come back to the place where one was raised, go back to the place where one was educated,",
    },
    "t:24c595f2656f0071bef445b751603bab9993a914": {
        "finish_reason": "length",
        "text": " situation, instance, example, illustration, sample, illustration, instance, example, illustration, sample, illustration, instance, example, illustration, sample, illustration, instance, example, illustration, sample, illustration, instance, example, illustration, sample, illustration, instance, example, illustration, sample, illustration, instance, example, illustration, sample, illustration, instance, example, illustration, sample, illustration, instance, example, illustration, sample, illustration, instance, example, illustration, sample, illustration, instance, example, illustration, sample, illustration, instance, example, illustration, sample, illustration, instance, example, illustration,",
    },
    "t:16d59a440f185eb43dfc0c260c5324e23e2a9857": {
        "finish_reason": "length",
        "text": " divide, separate, divide up, split, break up, part, divide into, divide into parts, divide into sections, divide into groups, divide into categories, divide into classes, divide into types, divide into groups, divide into sections, divide into parts, divide into categories, divide into classes, divide into types, divide into groups, divide into sections, divide into parts, divide into categories, divide into classes, divide into types, divide into groups, divide into sections, divide into parts, divide into categories, divide into classes, divide into types, divide into groups, divide into sections, divide into parts, divide into categories",
    },
    "t:8399b9c65e7d8af76e4c0bf6b9b3c00b7141b7a9": {
        "finish_reason": "length",
        "text": " alleviate, relieve, lighten, make easier, make less difficult, make more comfortable, make more bearable, make more tolerable, make more endurable, make more tolerable, make more bearable, make more endurable, make more tolerable, make more bearable, make more endurable, make more tolerable, make more bearable, make more endurable, make more tolerable, make more bearable, make more endurable, make more tolerable, make more bearable, make more endurable, make more tolerable, make more bearable, make more endurable, make more tolerable,",
    },
    "t:d20b0281ef255e8a9594645c43d545978db60c09": {
        "finish_reason": "length",
        "text": " time, period, age, duration, epoch, era, season, time of day, time of year, time of life, time of the day, time of the month, time of the year, time of the week, time of the year, time of the week, time of the year, time of the month, time of the week, time of the month, time of the year, time of the month, time of the year, time of the month, time of the year, time of the month, time of the year, time of the month, time of the year, time of the month, time of",
    },
    "t:25257d54af0f952a2ce3373b35a230d22f88445b": {
        "finish_reason": "length",
        "text": " solely, solely and exclusively, solely on the basis of, solely in order to, solely for the purpose of, solely for the sake of, solely for the reason that, solely because, solely in case, solely in the event that, solely on account of, solely by, solely in the event of, solely in case of, solely in the event that, solely in the event that, solely in the event that, solely in the event that, solely in the event that, solely in the event that, solely in the event that, solely in the event that, solely in the event that, solely in the event that, solely",
    },
    "t:d228977b09734a601732321eb09e3b7f0c65f9c7": {
        "finish_reason": "length",
        "text": " average, total, overall, combined, general, overall total, grand total, overall average, overall total average, overall average total, overall total average average, overall average total average average, overall total average average average average, overall average total average average average average, overall total average average average average average average, overall total average average average average average average average, overall total average average average average average average average average, overall total average average average average average average average average average, overall total average average average average average average average average average average, overall total average average average average average average average average average average average, overall total average average average average",
    },
    "t:254d93d0f08d6563ab3e0b32721db8ee3cc57132": {
        "finish_reason": "length",
        "text": " currently, at present, nowadays, at this time, currently, at the present time, at this point in time, at this juncture, at this moment, at this instant, at this point in time, at this point in history, at this time in history, at this point in time in history, at this point in time in history, at this point in time in history, at this point in time in history, at this point in time in history, at this point in time in history, at this point in time in history, at this point in time in history, at this point in time in history, at",
    },
    "t:6ee840c01af5ee681110626a7eedde024e4810d1": {
        "finish_reason": "length",
        "text": " business, corporate, industrial, commercial, company, firm, private, public, state-owned, government, public sector, private sector, public sector, private enterprise, private enterprise, business enterprise, business organization, business concern, business entity, business house, business firm, business organization, business concern, business entity, business house, business firm, business organization, business concern, business entity, business house, business firm, business organization, business concern, business entity, business house, business firm, business organization, business concern, business entity, business house, business firm, business organization, business concern, business entity, business house, business",
    },
    "t:51f4689eb15ae01455c907bb4c69729e05583f4f": {
        "finish_reason": "length",
        "text": " receive, acquire, obtain, come into possession of, get a hold of, get one's hands on, get a grip on, get a handle on, get a line on, get a look at, get a load of, get a piece of, get a shot at, get a whiff of, get a word in edgewise, get a whiff of, get a whiff of, get a whiff of, get a whiff of, get a whiff of, get a whiff of, get a whiff of, get a whiff of, get a whiff of, get a whiff of, get a whiff of, get a whiff",
    },
    "t:b4e703fa2c779cb61bbf6fe0c98bc6dd6cad7de7": {
        "finish_reason": "length",
        "text": " therefore, consequently, as a result, accordingly, in that case, for that reason, on that account, in that event, in that situation, in that event, in that case, in that instance, in that way, in that respect, in that situation, in that case, in that respect, in that way, in that instance, in that respect, in that way, in that respect, in that way, in that respect, in that way, in that respect, in that way, in that respect, in that way, in that respect, in that way, in that respect, in that way, in that",
    },
    "t:a37db6c4dc5560fabcb679c2facbb2ac63cb878b": {
        "finish_reason": "length",
        "text": " workplace, workplace, place of business, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace,",
    },
    "t:a724fadd9f4a76b633f64b8dac1886a11ecb0655": {
        "finish_reason": "length",
        "text": " called, known as, called by, referred to as, known as, called for, referred to as, called by the name of, known as, called by the name of, called by the name, known as, called by the name, known as, called by the name, known as, called by the name, known as, called by the name, known as, called by the name, known as, called by the name, known as, called by the name, known as, called by the name, known as, called by the name, known as, called by the name, known as, called by the",
    },
    "t:a770ee27b182740468dc63692667b7e652237a48": {
        "finish_reason": "length",
        "text": " In addition, Furthermore, Besides, Moreover, In addition to that, As well, Also, On top of that, To boot, In addition, In addition to that, Besides, In addition, In addition to that, Besides, In addition, In addition to that, Besides, In addition, In addition to that, Besides, In addition, In addition to that, Besides, In addition, In addition to that, Besides, In addition, In addition to that, Besides, In addition, In addition to that, Besides, In addition, In addition to that, Besides, In addition, In addition to that, Besides, In",
    },
    "t:375f18bc6f2b69baa34903157637ae39e76064cf": {
        "finish_reason": "length",
        "text": " workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace, workplace,",
    },
    "t:a0ea86bd8b6dd1dccaba3d7779774de0488afc91": {
        "finish_reason": "length",
        "text": " offer, proposal, proposition, tender, proposal, bid, offer, proposition, tender, proposal, bid, offer, proposition, tender, proposal, bid, offer, proposition, tender, proposal, bid, offer, proposition, tender, proposal, bid, offer, proposition, tender, proposal, bid, offer, proposition, tender, proposal, bid, offer, proposition, tender, proposal, bid, offer, proposition, tender, proposal, bid, offer, proposition, tender, proposal, bid, offer, proposition, tender, proposal, bid, offer, proposition, tender, proposal, bid, offer, proposition, tender,",
    },
    "t:71c9907dec3a71f27908b8b7f6d15ec36debd8be": {
        "finish_reason": "stop",
        "text": " Newspaper, Newspaper Company, Newspaper Corporation, Newspaper Group, Newspaper House, Newspaper Office, Newspaper Organization, Newspaper Syndicate, Newspaper Syndicate Company, Newspaper Syndicate House, Newspaper Syndicate Organization, Newspaper Syndicate Syndicate, Newspaper Syndicate Syndicate Company, Newspaper Syndicate Syndicate House, Newspaper Syndicate Syndicate Organization, Newspaper Syndicate Syndicate Syndicate, Newspaper Syndicate Syndicate Company, Newspaper Syndicate Syndicate House, Newspaper Syndicate Syndicate Organization, Newspaper Syndicate Syndicate Syndicate",
    },
    "t:1f3ab2f656ddd40c7ba260807d2f7a6ce544b56c": {
        "finish_reason": "length",
        "text": " stock, stockholder, shareholder, share, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock, stockholder, stock",
    },
    "t:8e510d8a139610e9f866bdc381c768301dcc4ec9": {
        "finish_reason": "stop",
        "text": " lived, subsisted, survived, endured, remained, stayed, kept on, continued, kept going, kept up, kept on going, kept on living, kept on surviving, kept on subsisting, kept on surviving, kept on staying, kept on enduring, kept on remaining, kept on staying, kept on going, kept on living, kept on surviving",
    },
    "t:40a99f0b439ae3973360edb6765571ed7e34ef17": {
        "finish_reason": "length",
        "text": " ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined, wrecked, demolished, ruined,",
    },
    "t:4cfdc78faf79a4b795a66ca5fb4be30191ea133b": {
        "finish_reason": "length",
        "text": " area, region, district, quarter, territory, precinct, sector, realm, sphere, realm, area, zone, locality, quarter, section, district, neighborhood, locale, region, quarter, area, region, district, quarter, territory, precinct, sector, realm, sphere, realm, area, zone, locality, quarter, section, district, neighborhood, locale, region, quarter, area, region, district, quarter, territory, precinct, sector, realm, sphere, realm, area, zone, locality, quarter, section, district, neighborhood, locale, region, quarter, area, region, district, quarter,",
    },
    "t:9605ab4d29b7ac7f0036e65149c0f7ea248f965b": {
        "finish_reason": "length",
        "text": " claims, maintains, argues, alleges, states, opines, says, declares, maintains that, claims that, insists that, argues that, alleges that, states that, opines that, says that, declares that, maintains that, claims that, insists that, argues that, alleges that, states that, opines that, says that, declares that, maintains that, claims that, insists that, argues that, alleges that, states that, opines that, says that, declares that, maintains that, claims that, insists that, argues that, alleges that, states that, opines that, says that, declares that",
    },
    "t:85ac3810a82746aa2e2cf133a6b2b0ac9300f3b1": {
        "finish_reason": "length",
        "text": " delegate, envoy, ambassador, agent, delegatee, representative, deputy, envoy, ambassador, agent, delegatee, representative, deputy, envoy, ambassador, agent, delegatee, representative, deputy, envoy, ambassador, agent, delegatee, representative, deputy, envoy, ambassador, agent, delegatee, representative, deputy, envoy, ambassador, agent, delegatee, representative, deputy, envoy, ambassador, agent, delegatee, representative, deputy, envoy, ambassador, agent, delegatee, representative, deputy, envoy, ambassador, agent, delegatee, representative, deputy, envoy, ambassador, agent, delegatee,",
    },
    "t:714c491727ba4d95ab0293cd482f93e58623e26e": {
        "finish_reason": "length",
        "text": " employ, engage, take on, sign up, take on staff, take on board, take on as employee, take on as staff, take on as member of staff, take on as member of staff, take on as member of staff, take on as member of staff, take on as member of staff, take on as member of staff, take on as member of staff, take on as member of staff, take on as member of staff, take on as member of staff, take on as member of staff, take on as member of staff, take on as member of staff, take on as member of staff, take on",
    },
    "t:292bb0acd7a58632cc37c5369e34aa6d98accd14": {
        "finish_reason": "length",
        "text": " boards, panels, boards of directors, boards of inquiry, boards of trustees, boards of examiners, boards of examiners, boards of review, boards of auditors, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of examiners, boards of exam",
    },
}
