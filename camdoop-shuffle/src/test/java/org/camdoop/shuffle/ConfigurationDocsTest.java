package org.camdoop.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.camdoop.shuffle.daemon.DaemonConfig;
import org.camdoop.shuffle.hadoop.CamdoopJobConfig;
import org.camdoop.shuffle.jobs.JobsConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Every key constant of this module is documented in conf/camdoop-site.xml with the default its constant holds. */
class ConfigurationDocsTest {

    private static Map<String, String[]> documented() throws Exception {
        NodeList properties = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(Path.of("..", "conf", "camdoop-site.xml").toFile()).getElementsByTagName("property");
        Map<String, String[]> out = new HashMap<>();
        for (int i = 0; i < properties.getLength(); i++) {
            Element p = (Element) properties.item(i);
            out.put(text(p, "name"), new String[] {text(p, "value"), text(p, "description")});
        }
        return out;
    }

    private static String text(Element p, String tag) {
        return p.getElementsByTagName(tag).item(0).getTextContent().trim();
    }

    @ParameterizedTest
    @ValueSource(classes = {DaemonConfig.class, JobsConfig.class, CamdoopJobConfig.class})
    void everyKeyHasItsDefaultAndNamesItsConstant(Class<?> keys) throws Exception {
        Map<String, String[]> docs = documented();
        int checked = 0;
        for (Field f : keys.getFields()) {
            String name = f.getName();
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != String.class || name.startsWith("DEFAULT_")
                    || name.endsWith("_DEFAULT") || !((String) f.get(null)).startsWith("camdoop.")) {
                continue;
            }
            String key = (String) f.get(null);
            assertTrue(docs.containsKey(key), key + " is not documented in conf/camdoop-site.xml");
            assertTrue(docs.get(key)[1].contains(keys.getSimpleName() + "." + name),
                    key + " must name its constant " + keys.getSimpleName() + "." + name);
            Object dflt = defaultOf(keys, name);
            if (dflt != null) {
                assertEquals(String.valueOf(dflt), docs.get(key)[0], "documented default of " + key);
            }
            checked++;
        }
        assertTrue(checked >= 5, "found only " + checked + " keys in " + keys);
    }

    private static Object defaultOf(Class<?> keys, String name) throws IllegalAccessException {
        for (String candidate : new String[] {"DEFAULT_" + name, name + "_DEFAULT"}) {
            try {
                return keys.getField(candidate).get(null);
            } catch (NoSuchFieldException ignored) {
                // try the other naming scheme
            }
        }
        return null;
    }
}
